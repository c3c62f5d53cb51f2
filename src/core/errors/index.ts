export { ExitCode, type ExitCodeValue } from './exit-codes.js';
export { ReqflowError, isReqflowError } from './reqflow-error.js';
export { UsageError, NoRequestsError, ParseError, VariableError, NetworkError, StreamViolation, TlsError, AuthFlowError, PluginError, internalError, fileErrorWords } from './kinds.js';
