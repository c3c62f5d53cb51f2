/**
 * The flags of `reqflow send`: every flag of `run` that applies to one request (same meaning,
 * one table) and the ones that write the request itself, named as curl names them.
 */
import { type FlagSpec, type RawRunFlags, RUN_FLAGS } from './run-flags.js';

/** `run`'s flags about a file's requests: which to run, how to list them, how to read the file. */
const FILE_ONLY = new Set(['name', 'list', 'fail-fast', 'format']);

export const SEND_FLAGS = {
  ...Object.fromEntries(Object.entries(RUN_FLAGS).filter(([name]) => !FILE_ONLY.has(name))),
  header: { type: 'string', char: 'H', multiple: true, helpValue: '"NAME: VALUE"', description: 'A request header ({{variables}} resolved). Repeatable; a name given twice is sent on two lines.' },
  data: { type: 'string', char: 'd', multiple: true, helpValue: 'BODY|@FILE', description: 'The body: text ({{variables}} resolved), or @FILE for the bytes of a file as they are; several are joined with & (as curl does). POST unless a method is given; Content-Type: application/x-www-form-urlencoded unless -H sets one.' },
  json: { type: 'string', multiple: true, helpValue: 'JSON|@FILE', description: 'A JSON body (text or @FILE), sent with Content-Type and Accept: application/json unless -H sets them. POST unless a method is given.' },
  form: { type: 'string', multiple: true, helpValue: 'NAME=VALUE|NAME=@FILE', description: 'A multipart/form-data field. Repeatable; NAME=@FILE sends a file, NAME=@FILE;type=MIME with its type (default application/octet-stream). POST unless a method is given.' },
  auth: { type: 'string', helpValue: 'METHOD', description: 'The auth method, as # @auth METHOD does in a file: bearer, apikey, basic, digest, custom, oauth2, none, or a plugin\'s. The profile\'s settings apply.' },
  user: { type: 'string', char: 'u', helpValue: 'USER:PASSWORD', description: 'Basic auth with this user and password ({{variables}} resolved; the password is masked in all output).' },
} as const satisfies Record<string, FlagSpec>;

export interface RawSendFlags extends RawRunFlags {
  header?: string[];
  data?: string[];
  json?: string[];
  form?: string[];
  auth?: string;
  user?: string;
}

export const SEND_EXAMPLES = [
  { description: 'A GET', command: '<%= config.bin %> send https://api.example.com/users' },
  { description: 'A JSON POST with a header, the profile\'s baseUrl and auth', command: '<%= config.bin %> send POST "{{baseUrl}}/users" -H "X-Team: blue" --json \'{"name": "Ada"}\' --auth bearer' },
  { description: 'A file upload', command: '<%= config.bin %> send POST https://api.example.com/files --form title=report --form file=@report.pdf;type=application/pdf' },
  { description: 'Basic auth, the response as a JSON record', command: '<%= config.bin %> send https://api.example.com/admin -u admin:s3cret -o json' },
  { description: 'The request as a curl command, nothing sent', command: '<%= config.bin %> send POST https://api.example.com/users -d name=ada --as curl' },
];
