/**
 * reqflow's runtime API for plugins: the values (errors, helpers, constants) that a plugin's
 * `reqflow:plugins` hook receives as `reqflow`, and that `import * as reqflow from 'reqflow'`
 * gives. The types are in index.ts.
 */
export { STAGES, REQUEST_STAGES, HOOKS } from './pipeline/plugin.js';
export { ReqflowError, UsageError, ParseError, VariableError, NetworkError, TlsError, AuthFlowError, PluginError, ExitCode, isReqflowError } from './core/errors/index.js';
export { getHeader, setHeader, hasHeader, deleteHeader } from './core/headers.js';
export { MASK, isSecretName, maskHeaders, maskUrl } from './core/mask.js';
/** The URL of a request, validated as `send` does (exit 2 with a hint for text that is not an http(s) URL). */
export { parseRequestUrl } from './core/http/send.js';
export { wireTarget } from './core/http/wire-target.js';
export { readVariable, readOptionalVariable, readSession, writeSession, fail, maskSecret, readAuthSettings, requestedAuth } from './core/plugin-helpers.js';
