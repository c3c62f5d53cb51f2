/**
 * The public API of reqflow for plugin authors:
 *
 *   import type { Plugin, RequestContext, Stage } from 'reqflow';
 *   import { ReqflowError, ExitCode, getHeader, setHeader, MASK } from 'reqflow';
 */
export type {
  Stage,
  RequestStage,
  Plugin,
  StageHandlers,
  RequestHandler,
  ParseHandler,
  RequestContext,
  ParseContext,
  RequestSpec,
  ResponseInfo,
  StreamEvent,
  Profile,
  ProfileVariable,
  OAuthSettings,
  AuthSettings,
  TlsSettings,
  TlsConnectionOptions,
  RunOptions,
  Session,
  OutputSink,
  VariableResolver,
  HttpClient,
  HttpRequest,
  SourceLocation,
  Awaitable,
} from './core/pipeline.js';
export { STAGES, REQUEST_STAGES } from './core/pipeline.js';
export { ReqflowError, UsageError, ParseError, VariableError, NetworkError, TlsError, AuthFlowError, PluginError, ExitCode, isReqflowError } from './core/errors/index.js';
export { getHeader, setHeader, hasHeader, deleteHeader } from './core/headers.js';
export { MASK, isSecretName, maskHeaders, maskUrl } from './core/mask.js';
