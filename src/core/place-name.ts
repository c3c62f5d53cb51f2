/**
 * The name the readers give a request written without one: `request-N`, its place in the file
 * (1-based). Such a name is no identity of its own: another request may stand in that place later.
 */
export const placeName = (position: number): string => `request-${position}`;

/** True for a name that is only a place (`request-3`). */
export const isPlaceName = (name: string): boolean => /^request-\d+$/.test(name);
