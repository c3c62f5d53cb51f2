/** The annotations the chain plugin handles (builtins.ts lists them for it); `expected*` too. */
export const CHAIN_ANNOTATIONS = ['capture', 'extract', 'ref', 'forceRef', 'depends', 'dependsOn', 'import', 'save', 'expectedStatusCodes', 'expectedBody', 'expectedBodyExact', 'expectedBodyPattern', 'expectedBodyField', 'expectedBodyField.*'];

/** Is this annotation one the chain handles? */
export const chainingAnnotation = (key: string): boolean => key.startsWith('expected') || CHAIN_ANNOTATIONS.includes(key);
