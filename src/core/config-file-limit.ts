/** The largest settings file a project may bring (environment files, `.env`, `.profiles.json`): real ones are a few kilobytes (read-config-file.ts says why it is bounded). */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;
