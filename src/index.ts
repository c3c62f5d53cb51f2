/**
 * The public API of reqflow for plugin authors:
 *
 *   import type { Plugin, RequestContext, Stage, PluginsHook } from 'reqflow';
 *
 * At run time, take the values below from the `reqflow` option your `reqflow:plugins` hook
 * receives (see `PluginsHookOptions`): an installed plugin has no copy of reqflow to import.
 */
export type { Stage, RequestStage, Hook, Step, Plugin, StageHandlers, RequestHandler, ParseHandler, Awaitable } from './pipeline/plugin.js';
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
  FileBody,
  SourceLocation,
} from './core/model.js';
export type { Reporter, ReportFeed, BodyPart, EventPart, StreamEndPart, RequestOutcome, RunSummary } from './report/reporter.js';
export type { ExitCodeValue } from './core/errors/index.js';
export type { PluginsHook, PluginsHookOptions } from './pipeline/plugins-hook.js';
export * from './runtime-api.js';
