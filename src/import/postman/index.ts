/**
 * `reqflow import postman COLLECTION [--environment ENV]`: a Postman Collection v2.0/v2.1,
 * read with Postman's own SDK (`postman-collection`: both versions, auth inheritance, URL
 * path variables, script events), to one `.http` file per folder. Collection variables and the
 * environment's values become the environment file's; secrets (Postman's `secret` type, and
 * names that look like one) its private file.
 */
import { basename, dirname, extname, posix, resolve } from 'node:path';
import * as sdk from 'postman-collection';
import { UsageError } from '../../core/errors/index.js';
import type { ImportedFile, Imported, ImportOptions } from '../model.js';
import { checkShape } from '../document-shape.js';
import { slug, UniqueNames } from '../names.js';
import { asRecord, readJsonSource, type SourceReader } from '../source.js';
import { ImportVariables } from '../variables.js';
import { COLLECTION } from './collection-shape.js';
import { entries, itemLabel, requestOf, type PostmanContext } from './request.js';
import { LiteralTemplates, postmanText, type LiteralTemplate } from './templates.js';

// A CommonJS package whose exports Node cannot list for `import { … }`: its module object is the default.
const { Collection, Item, ItemGroup } = (sdk as unknown as { default?: typeof sdk }).default ?? sdk;
type ItemGroup = sdk.ItemGroup;
type Item = sdk.Item;

/** Postman's variable names are any text; a `{{name}}` of reqflow cannot hold spaces or braces. */
function defineVariable(variables: ImportVariables, key: unknown, value: unknown, secret: boolean, warn: (message: string) => void, literal: (where: string) => LiteralTemplate): void {
  if (typeof key !== 'string' || key === '') return;
  if (/[\s{}]/.test(key)) return warn(`Postman variable "${key}": a name with spaces or braces cannot be a reqflow variable; not imported`);
  const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  // A value is `.http` text too: only its references to variables stay templates.
  variables.define(key, postmanText(text, literal(`variable ${JSON.stringify(key)}`)), secret);
}

async function readCollection(source: string, reader: SourceReader): Promise<Record<string, unknown>> {
  const document = asRecord(await readJsonSource(source, 'a Postman collection', reader));
  const info = asRecord(document?.info);
  const schema = String(info?.schema ?? '');
  // `info` is optional to Postman and newman: a collection is its `item` list.
  if (!document || !Array.isArray(document.item)) {
    const v1 = document && Array.isArray(document.requests);
    throw new UsageError(`${source}: not a Postman collection v2.0 or v2.1${v1 ? ' (this is the v1 format)' : ''}`, { hint: 'in Postman: Export → Collection v2.1' });
  }
  if (schema !== '' && !/collection\/v2\.[01]\.\d/.test(schema)) throw new UsageError(`${source}: Postman collection schema ${schema} is not v2.0 or v2.1`, { hint: 'in Postman: Export → Collection v2.1' });
  return checkShape(document, COLLECTION, source, 'a Postman collection has text there: correct that field, or export the collection again (Export → Collection v2.1)');
}

async function readEnvironment(path: string, reader: SourceReader): Promise<{ name?: string; values: Array<Record<string, unknown>> }> {
  const document = asRecord(await readJsonSource(path, 'a Postman environment', reader));
  if (!document || !Array.isArray(document.values)) throw new UsageError(`${path}: not a Postman environment (no "values" list)`, { hint: 'in Postman: Environments → ⋯ → Export' });
  return { ...(typeof document.name === 'string' ? { name: document.name } : {}), values: document.values.map(asRecord).filter((v): v is Record<string, unknown> => v !== undefined) };
}

export async function importPostman(source: string, options: ImportOptions): Promise<Imported> {
  const document = await readCollection(source, options);
  const collection = new Collection(document as never);
  const variables = new ImportVariables();
  const literal = new LiteralTemplates();
  const at = (where: string): LiteralTemplate => literal.at(where);
  for (const variable of entries(collection.variables)) {
    if (!variable.disabled) defineVariable(variables, variable.key, variable.value, variable.type === 'secret', options.warn, at);
  }
  let envName = options.envName;
  if (options.environment !== undefined) {
    const environment = await readEnvironment(options.environment, options);
    // The environment's values win over the collection's, as in Postman.
    for (const value of environment.values) if (value.enabled !== false) defineVariable(variables, value.key, value.value, value.type === 'secret', options.warn, at);
    envName ??= environment.name ? slug(environment.name, 'dev') : undefined;
  }
  const stem = slug(basename(source, extname(source)).replace(/\.postman_collection$/, ''), 'postman');
  const profilesFile = `${stem}.profiles.json`;
  const profiles: Array<{ name: string; oauth: Record<string, string> }> = [];
  let following = 0;
  const context: PostmanContext = {
    variables,
    baseDir: dirname(resolve(options.cwd, source)),
    warn: options.warn,
    literalTemplate: at,
    followsRedirects: () => void following++,
    oauthProfile: (oauth) => {
      const same = profiles.find((p) => JSON.stringify(p.oauth) === JSON.stringify(oauth));
      const name = same?.name ?? `oauth${profiles.length === 0 ? '' : profiles.length + 1}`;
      if (!same) profiles.push({ name, oauth });
      return `reqflow oauth login --profiles ${profilesFile} -p ${name}`;
    },
  };
  const files: ImportedFile[] = [];
  const folderNames = new Map<string, UniqueNames>();
  /** Requests of `group` to `path`; its folders to files of their own, in a folder named after it. */
  const walk = (group: ItemGroup, path: string, folder: string, header: string[]): void => {
    const file: ImportedFile = { path, header, requests: [] };
    const names = new UniqueNames();
    const folders = folderNames.get(folder) ?? new UniqueNames();
    folderNames.set(folder, folders);
    for (const child of (group.items as unknown as { all(): unknown[] }).all()) {
      if (ItemGroup.isItemGroup(child)) {
        const sub = child as ItemGroup;
        const name = folders.take(slug(sub.name ?? '', 'folder'));
        walk(sub, posix.join(folder, `${name}.http`), posix.join(folder, name), [sub.name ?? name, `Imported by reqflow import postman from ${basename(source)}.`]);
      } else if (Item.isItem(child)) {
        const item = child as Item;
        const request = requestOf(item, names.take(slug(itemLabel(item), 'request')), context);
        if (request) file.requests.push(request);
      }
    }
    if (file.requests.length > 0) files.unshift(file);
  };
  // A folder named as the collection would be written over the collection's own requests' file.
  const root = new UniqueNames();
  if ((collection.items as unknown as { all(): unknown[] }).all().some((child) => Item.isItem(child))) root.take(stem);
  folderNames.set('', root);
  walk(collection as unknown as ItemGroup, `${stem}.http`, '', [collection.name ?? stem, `Imported by reqflow import postman from ${basename(source)}.`]);
  const literalWarning = literal.warning(source);
  if (literalWarning !== undefined) options.warn(literalWarning);
  if (files.length === 0) options.warn(`${source} has no requests: only the environment is written`);
  // Postman follows redirects unless told not to; a request file cannot say "follow" (only @no-redirect).
  if (following > 0) options.warn(`${source}: Postman follows redirects for ${following} ${following === 1 ? 'request' : 'requests'}: run ${following === 1 ? 'it' : 'them'} with reqflow run -L to do the same`);
  return {
    files: files.reverse(),
    variables,
    envName: envName ?? 'dev',
    extraFiles: profiles.length > 0 ? [{ path: profilesFile, text: `${JSON.stringify(profiles, null, 2)}\n` }] : [],
  };
}
