/**
 * The public API of reqflow for plugin authors:
 *
 *   import type { Plugin, RequestContext, Stage, PluginsHook } from 'reqflow';
 *
 * At run time, take the values below from the `reqflow` option your `reqflow:plugins` hook
 * receives (see `PluginsHookOptions`): an installed plugin has no copy of reqflow to import.
 */
export type { Stage, RequestStage, Hook, Step, Plugin, PluginsHook, PluginsHookOptions, StageHandlers, RequestHandler, ParseHandler, Awaitable } from './pipeline/plugin.js';
export type { RequestContext, BaseContext, SubstituteContext, AuthContext, TransformContext, SendContext, RenderContext, CaptureContext, PersistContext, ParseContext } from './pipeline/context.js';
export type {
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
} from './core/model.js';
export type { Reporter, ReportFeed, BodyPart, EventPart, StreamEndPart, RequestOutcome, RunSummary } from './report/reporter.js';
export type { ExitCodeValue } from './core/errors/index.js';
export { STAGES, REQUEST_STAGES, HOOKS } from './pipeline/plugin.js';
export { ReqflowError, UsageError, ParseError, VariableError, NetworkError, TlsError, AuthFlowError, PluginError, ExitCode, isReqflowError } from './core/errors/index.js';
export { getHeader, setHeader, hasHeader, deleteHeader } from './core/headers.js';
export { MASK, isSecretName, maskHeaders, maskUrl } from './core/mask.js';
/** The URL of a request, validated as `send` does (exit 2 with a hint for text that is not an http(s) URL). */
export { parseRequestUrl } from './core/http/send.js';
export { readVariable, readOptionalVariable, readSession, writeSession, fail, maskSecret, readAuthSettings, requestedAuth } from './core/plugin-helpers.js';
