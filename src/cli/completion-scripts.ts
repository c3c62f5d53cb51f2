/**
 * The scripts `reqflow autocomplete SHELL` prints. Each only hands the command line to
 * `reqflow __complete` (src/cli/complete.ts, which knows the commands, flags and values) and
 * shows what it prints, so a script never goes stale: a new flag, command or plugin is
 * completed without installing the script again.
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The hidden command the scripts call: its output is one candidate per line. */
const COMPLETE_COMMAND = '__complete';

/**
 * bash: the line and the cursor go as they are (COMP_WORDS is split at `=` and `:` too, which
 * would cut `--env=dev` in three); the answers come back quoted for bash and trimmed to the
 * part of the word bash replaces. A folder (ending in `/`) as the only answer takes no space.
 * Read line by line, never word-split or globbed; bash 3.2 has no mapfile.
 */
function bash(bin: string): string {
  const fn = `_${identifier(bin)}_complete`;
  return `# ${bin} completion for bash: source it, or save it as ~/.local/share/bash-completion/completions/${bin}
${fn}() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do
    COMPREPLY+=("$line")
  done < <(command ${bin} ${COMPLETE_COMMAND} bash "$COMP_POINT" "$COMP_LINE" "$COMP_WORDBREAKS" 2>/dev/null)
  if [[ \${#COMPREPLY[@]} -eq 1 && \${COMPREPLY[0]} == */ ]]; then compopt -o nospace 2>/dev/null; fi
  return 0
}
complete -F ${fn} ${bin}
`;
}

/**
 * zsh: the words as the shell parsed them, quotes removed — for the word under the cursor, what
 * precedes the cursor ($PREFIX, which leaves out an open quote); `value<TAB>description` lines are
 * described, folders added with no space after them. Autoloaded from $fpath as `_BIN` (the
 * file's body is then that function's: it defines the real one and runs it), or sourced.
 */
function zsh(bin: string): string {
  const fn = `_${identifier(bin)}`;
  return `#compdef ${bin}
# ${bin} completion for zsh: save it as _${bin} in a folder of $fpath (before compinit), or source it after compinit
${fn}() {
  local -a lines described plain folders
  local line
  lines=("\${(@f)$(command ${bin} ${COMPLETE_COMMAND} zsh $((CURRENT - 2)) "\${(@Q)words[2,CURRENT-1]}" "\${(Q)PREFIX}" "\${(@Q)words[CURRENT+1,-1]}" 2>/dev/null)}")
  for line in "\${lines[@]}"; do
    if [[ -z $line ]]; then continue
    elif [[ $line == *$'\\t'* ]]; then described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    elif [[ $line == */ ]]; then folders+=("$line")
    else plain+=("$line")
    fi
  done
  (( \${#described} )) && _describe -t values ${bin} described
  (( \${#plain} )) && compadd -- "\${plain[@]}"
  (( \${#folders} )) && compadd -S '' -- "\${folders[@]}"
  return 0
}
if [[ \${funcstack[1]} == ${fn} ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${bin}
fi
`;
}

/** fish: the tokens before the cursor and the one under it, unquoted; fish reads `value<TAB>description` itself. */
function fish(bin: string): string {
  const fn = `__${identifier(bin)}_complete`;
  return `# ${bin} completion for fish: save it as ~/.config/fish/completions/${bin}.fish
function ${fn}
    set -l tokens (commandline -opc)
    set -e tokens[1]
    command ${bin} ${COMPLETE_COMMAND} fish (count $tokens) $tokens (commandline -ct | string unescape) 2>/dev/null
end
complete -c ${bin} -f -a '(${fn})'
`;
}

function identifier(bin: string): string {
  return bin.replace(/[^A-Za-z0-9_]/g, '_');
}

/** The completion script of `shell` for the command `bin`. */
export function completionScript(shell: Shell, bin: string): string {
  return shell === 'bash' ? bash(bin) : shell === 'zsh' ? zsh(bin) : fish(bin);
}

/** How to install the script of `shell` (every shell's when it is not one of ours), for `reqflow autocomplete`. */
export function installInstructions(shell: string | undefined, bin: string): string {
  const steps: Record<Shell, string> = {
    bash: `bash — with the bash-completion package (loaded the first time you press TAB after ${bin}):
  mkdir -p ~/.local/share/bash-completion/completions
  ${bin} autocomplete bash > ~/.local/share/bash-completion/completions/${bin}
or without it:
  ${bin} autocomplete bash > ~/.${bin}-completion.bash && echo 'source ~/.${bin}-completion.bash' >> ~/.bashrc`,
    zsh: `zsh — into a folder of $fpath, read by compinit:
  mkdir -p ~/.zfunc && ${bin} autocomplete zsh > ~/.zfunc/_${bin}
and in ~/.zshrc, before compinit runs (oh-my-zsh runs it: put the line above "source $ZSH/oh-my-zsh.sh"):
  fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit`,
    fish: `fish:
  ${bin} autocomplete fish > ~/.config/fish/completions/${bin}.fish`,
  };
  const shown = SHELLS.includes(shell as Shell) ? [shell as Shell] : SHELLS;
  return `${shown.map((name) => steps[name]).join('\n\n')}

Then open a new shell. ${bin} <TAB> completes commands and request files; after run, test and tui, request
files and folders; --env, -p and -n complete environments, profiles and the file's request names. The
script asks ${bin} on each TAB, so it never needs installing again.
`;
}
