/**
 * The variable editor's changes to `.profiles.json` (`v`), as surgical text edits of one
 * profile's `variables`: every other byte of the file — other profiles, unknown keys, comments,
 * formatting — stays. restcli's multi-value form is kept as restcli writes it:
 * `{"options": [...], "active": 1, "aliases": {"prod": 1}}`.
 */
import { UsageError } from '../../core/errors/index.js';
import { appendItem, member, removeMember, scanJson, setItem, setMember, type JsonNode } from '../json-edit.js';
import { findProfile, profileList, readJson } from '../profiles-writer.js';

/** One change the editor makes. */
export type VariableEdit =
  /** A plain variable's value; a multi-value variable's active option; an interactive one's default. */
  | { kind: 'set'; name: string; value: string }
  | { kind: 'remove'; name: string }
  /** The active option of a multi-value variable. */
  | { kind: 'activate'; name: string; index: number }
  /** Names option `index` `alias`; `replaces` (an alias of it) goes; an empty `alias` only removes. */
  | { kind: 'alias'; name: string; alias: string; index: number; replaces?: string }
  /** Adds an option (a plain variable becomes multi-value, its value the first option) and makes it active. */
  | { kind: 'add-option'; name: string; value: string };

/** A variable as the file writes it. */
export type RawVariable =
  | { form: 'plain'; value: string }
  | { form: 'prompt'; value: string; interactive: boolean; secret: boolean }
  | { form: 'multi'; options: string[]; active: number; aliases: Record<string, number>; description?: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The index `active` names (an index or an alias); out of range reads as 0 (the loader reports it). */
function activeIndex(item: Record<string, unknown>, count: number): number {
  const aliases = isObject(item.aliases) ? item.aliases : {};
  const active = typeof item.active === 'string' && Object.hasOwn(aliases, item.active) ? aliases[item.active] : (item.active ?? 0);
  return typeof active === 'number' && Number.isInteger(active) && active >= 0 && active < count ? active : 0;
}

function rawVariable(item: unknown): RawVariable | undefined {
  if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') return { form: 'plain', value: String(item) };
  if (!isObject(item)) return undefined;
  if (Array.isArray(item.options)) {
    const options = item.options.map((option) => String(option));
    const aliases = Object.fromEntries(Object.entries(isObject(item.aliases) ? item.aliases : {}).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
    return { form: 'multi', options, active: activeIndex(item, options.length), aliases, ...(typeof item.description === 'string' ? { description: item.description } : {}) };
  }
  return { form: 'prompt', value: typeof item.value === 'string' ? item.value : '', interactive: item.interactive === true, secret: item.secret === true };
}

/** The named profile's variables as the file writes them, in the file's order (none: an empty list). */
export function rawVariables(text: string, path: string, profileName: string): Array<[string, RawVariable]> {
  const doc = readJson(text, path);
  const list = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.profiles) ? doc.profiles : [];
  const profile = (list as unknown[]).find((p) => isObject(p) && p.name === profileName);
  const variables = isObject(profile) && isObject(profile.variables) ? profile.variables : {};
  return Object.entries(variables).flatMap(([name, item]) => {
    const raw = rawVariable(item);
    return raw ? [[name, raw] as [string, RawVariable]] : [];
  });
}

/** Where the edit goes: the profile's `variables` object (added when missing) and the variable's node. */
function locate(text: string, path: string, profileName: string): { text: string; variables: JsonNode } {
  let list = profileList(scanJson(text), path);
  if (!findProfile(text, list, profileName)) {
    text = appendItem(text, list, { name: profileName });
    list = profileList(scanJson(text), path);
  }
  const profile = findProfile(text, list, profileName) as JsonNode;
  const variables = member(profile, 'variables')?.value;
  if (variables?.kind === 'object') return { text, variables };
  const added = setMember(text, profile, 'variables', {});
  return locate(added, path, profileName);
}

function nodeOf(text: string, path: string, profileName: string, name: string): { text: string; variables: JsonNode; node: JsonNode | undefined } {
  const { text: current, variables } = locate(text, path, profileName);
  return { text: current, variables, node: member(variables, name)?.value };
}

function multiValue(node: JsonNode | undefined): node is JsonNode & { kind: 'object' } {
  return node?.kind === 'object' && member(node, 'options')?.value.kind === 'array';
}

/** Applies one edit to the text of a profiles file; throws a one-line error for an edit the variable cannot take. */
export function applyVariableEdit(text: string, path: string, profileName: string, edit: VariableEdit): string {
  readJson(text, path);
  const { text: current, variables, node } = nodeOf(text, path, profileName, edit.name);
  const raw = rawVariables(current, path, profileName).find(([name]) => name === edit.name)?.[1];
  const where = `variable ${edit.name} of profile "${profileName}"`;
  switch (edit.kind) {
    case 'remove':
      return removeMember(current, variables, edit.name);
    case 'set': {
      if (raw?.form === 'multi' && multiValue(node)) return setItem(current, member(node, 'options')?.value as JsonNode, raw.active, edit.value);
      if (raw?.form === 'prompt' && node?.kind === 'object') return setMember(current, node, 'value', edit.value);
      return setMember(current, variables, edit.name, edit.value);
    }
    case 'activate': {
      if (raw?.form !== 'multi' || !multiValue(node)) throw new UsageError(`${where} has one value, no options to choose from`);
      if (!Number.isInteger(edit.index) || edit.index < 0 || edit.index >= raw.options.length) throw new UsageError(`${where} has no option ${edit.index}`);
      return setMember(current, node, 'active', edit.index);
    }
    case 'alias': {
      if (raw?.form !== 'multi' || !multiValue(node)) throw new UsageError(`${where} has one value: add an option first (+), then name it`);
      if (edit.alias !== '' && Object.hasOwn(raw.aliases, edit.alias) && raw.aliases[edit.alias] !== edit.index && edit.alias !== edit.replaces) throw new UsageError(`${where} already has an alias "${edit.alias}" (option ${raw.aliases[edit.alias]})`);
      let result = current;
      const aliasesOf = (t: string): JsonNode | undefined => member(nodeOf(t, path, profileName, edit.name).node as JsonNode, 'aliases')?.value;
      if (edit.replaces !== undefined && edit.replaces !== edit.alias) {
        const aliases = aliasesOf(result);
        if (aliases) result = removeMember(result, aliases, edit.replaces);
      }
      if (edit.alias === '') return result;
      const aliases = aliasesOf(result);
      if (aliases?.kind === 'object') return setMember(result, aliases, edit.alias, edit.index);
      return setMember(result, nodeOf(result, path, profileName, edit.name).node as JsonNode, 'aliases', { [edit.alias]: edit.index });
    }
    case 'add-option': {
      if (raw?.form === 'prompt') throw new UsageError(`${where} is asked when sent (interactive): it cannot have options`);
      if (raw?.form === 'multi' && multiValue(node)) {
        const added = appendItem(current, member(node, 'options')?.value as JsonNode, edit.value);
        return setMember(added, nodeOf(added, path, profileName, edit.name).node as JsonNode, 'active', raw.options.length);
      }
      const options = raw?.form === 'plain' ? [raw.value, edit.value] : [edit.value];
      return setMember(current, variables, edit.name, { options, active: options.length - 1 });
    }
  }
}
