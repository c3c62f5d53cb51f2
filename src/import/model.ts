/**
 * What every importer produces: requests grouped in files, and the variables they use. The
 * writer (`plan-files.ts`) turns it into `.http` text and environment files; an importer never
 * writes text of its own.
 */
import type { ImportVariables } from './variables.js';

/** One multipart part: a text value, or a file included byte for byte (`< ./path`). */
export interface MultipartPart {
  name: string;
  /** `filename="…"` of a file part. */
  filename?: string;
  contentType?: string;
  value: { text: string } | { file: string };
}

export type ImportedBody =
  /** Body text. `exact`: the source gave these bytes (curl, HAR), so `{{` in it is not a variable. */
  | { kind: 'text'; text: string; exact: boolean }
  /** A file sent as its bytes: `< ./path` (absolute here; written relative to the request file). */
  | { kind: 'file'; path: string }
  /** Bytes that are no text (a HAR body in base64): written to a file beside, sent with `< ./file`. */
  | { kind: 'bytes'; bytes: Buffer }
  /** `exact` as for text: a part's `{{` is the source's template (Postman) or bytes (curl, HAR, OpenAPI). */
  | { kind: 'multipart'; boundary: string; parts: MultipartPart[]; exact: boolean };

export interface ImportedRequest {
  /** `# @name`: unique in its file. */
  name: string;
  /** The `###` line, when it says more than the name (an operation's summary). */
  title?: string;
  /** Written as `# …` lines above the request: notes, what could not be carried over. */
  comments: string[];
  /** `# @key value` lines (`true`: a bare `# @key`; `{file}`: a path, absolute here, written relative to the request file). */
  annotations: Array<[string, string | true | { file: string }]>;
  /** `GET` …, or `GRAPHQL` (JetBrains: query, then a JSON object of variables). */
  method: string;
  url: string;
  /** A `GRAPHQL` request's query and variables (JSON text, or ''), for when its text cannot stand below the request line. */
  graphql?: { query: string; variables: string };
  /** `HTTP/2` at the end of the request line. */
  http2?: true;
  headers: Array<[string, string]>;
  body?: ImportedBody;
  /** JavaScript of a JetBrains pre-request script: `< {% … %}`. */
  preScript?: string;
  /** JavaScript of a JetBrains response handler: `> {% … %}`. */
  postScript?: string;
}

export interface ImportedFile {
  /** Relative to the output folder, `/`-separated, ending in `.http`. */
  path: string;
  /** `#` lines at the top of the file. */
  header: string[];
  requests: ImportedRequest[];
}

/** A file an importer adds beside the requests (a profiles file), relative to the output folder. */
export interface ExtraFile {
  path: string;
  text: string;
}

export interface Imported {
  files: ImportedFile[];
  variables: ImportVariables;
  /** The environment the variables are written under (`--env NAME`). */
  envName: string;
  extraFiles: ExtraFile[];
}

/** What the command gives every importer. */
export interface ImportOptions {
  /** The output folder, absolute. */
  outDir: string;
  /** The folder the command runs in: relative paths of the source start there. */
  cwd: string;
  /** `--env-name`, when given. */
  envName?: string;
  /** Postman: `--environment FILE`. */
  environment?: string;
  /** HAR: `--cookies` keeps the requests' cookies; `--per-host` writes one file per host. */
  cookies?: boolean;
  perHost?: boolean;
  /** Standard input, for the source `-`, at most {@link maxBytes}. */
  stdin(): Promise<string>;
  /** The most bytes each file the import reads may have (`--max-size`): the source, an environment, a `$ref`'d file, a curl `@file`. */
  maxBytes: number;
  warn(message: string): void;
}
