/**
 * A Postman auth block (the request's, else its folder's, else the collection's: the SDK's
 * `getAuth()` walks up) to what the request sends. Literal credentials move to the private
 * environment file; `{{variables}}` stay what they are.
 */
import type { RequestAuth } from 'postman-collection';
import type { ImportVariables } from '../variables.js';
import { postmanText, type LiteralTemplate } from './templates.js';

export interface AuthResult {
  headers: Array<[string, string]>;
  query: Array<[string, string]>;
  comments: string[];
  /** An `oauth` object for a profile (docs/oauth.md), from an oauth2 block. */
  oauth?: Record<string, string>;
}

const TEMPLATE_ONLY = /^\{\{[^{}]+\}\}$/;

const GRANTS: Record<string, string> = { authorization_code: 'authorization_code', authorization_code_with_pkce: 'authorization_code', client_credentials: 'client_credentials' };

export function authOf(auth: (RequestAuth & { type?: string }) | undefined, variables: ImportVariables, warn: (message: string) => void, where: string, literal: LiteralTemplate): AuthResult {
  const result: AuthResult = { headers: [], query: [], comments: [] };
  if (!auth || auth.type === 'noauth') return result;
  const params = auth.parameters().toObject() as Record<string, unknown>;
  // Only the document's variable references stay templates (templates.ts).
  const text = (key: string): string => postmanText(params[key] === undefined || params[key] === null ? '' : String(params[key]), literal);
  /** A credential: its template as written, else a secret variable holding it. */
  const secret = (key: string, base: string): string => (TEMPLATE_ONLY.test(text(key)) ? text(key) : `{{${variables.secret(base, text(key))}}}`);
  const plain = (key: string, base: string): string => (TEMPLATE_ONLY.test(text(key)) || (text(key) !== '' && !/\s/.test(text(key))) ? text(key) : `{{${variables.parameter(base, text(key))}}}`);
  switch (auth.type) {
    case 'basic':
      result.headers.push(['Authorization', `Basic ${plain('username', 'username')} ${secret('password', 'password')}`]);
      break;
    case 'digest':
      result.headers.push(['Authorization', `Digest ${plain('username', 'username')} ${secret('password', 'password')}`]);
      break;
    case 'bearer':
      result.headers.push(['Authorization', `Bearer ${secret('token', 'token')}`]);
      break;
    case 'apikey': {
      const name = text('key') || 'X-API-Key';
      const value = secret('value', 'apiKey');
      if (text('in') === 'query') result.query.push([name, value]);
      else result.headers.push([name, value]);
      break;
    }
    case 'oauth2': {
      result.headers.push(['Authorization', `Bearer ${text('accessToken') ? secret('accessToken', 'token') : `{{${variables.parameter('token', '', { secret: true })}}}`}`]);
      const grant = GRANTS[text('grant_type') || 'authorization_code'];
      if (!grant) {
        warn(`${where}: OAuth 2.0 grant "${text('grant_type')}" is not one reqflow runs: set {{token}} yourself`);
        break;
      }
      result.oauth = {
        clientId: text('clientId') || '{{env.OAUTH_CLIENT_ID}}',
        ...(text('clientSecret') ? { clientSecret: '{{env.OAUTH_CLIENT_SECRET}}' } : {}),
        ...(grant === 'client_credentials' ? { grant } : {}),
        ...(text('authUrl') ? { authUrl: text('authUrl') } : {}),
        ...(text('accessTokenUrl') ? { tokenUrl: text('accessTokenUrl') } : {}),
        ...(text('scope') ? { scope: text('scope') } : {}),
        ...(text('redirect_uri') ? { redirectUrl: text('redirect_uri') } : {}),
      };
      break;
    }
    default:
      warn(`${where}: Postman auth "${auth.type}" has no equivalent in reqflow: the request is written without it`);
      result.comments.push(`Postman auth "${auth.type}" is not imported: add its header yourself`);
  }
  return result;
}
