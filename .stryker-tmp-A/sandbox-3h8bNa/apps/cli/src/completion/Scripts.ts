/**
 * `mcpctl completion bash|zsh|fish`: the script a shell sources. Each asks `mcpctl __complete
 * LINE` (the line up to the cursor) for the words that fit, one a line, or `:files` for the
 * shell's own file names. Pure.
 */
// @ts-nocheck


/** The line `__complete` prints when the shell's file names fit (no word starts with `:`). */
export const FILES = ":files"

export const shells = ["bash", "zsh", "fish"] as const
export type Shell = (typeof shells)[number]

// bash splits words at COMP_WORDBREAKS (`=`, `:` too) while `__complete` answers whole words:
// each answer loses what the line holds of its last word before bash's current word.
const bash = `# mcpctl completion for bash: source <(mcpctl completion bash)
_mcpctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local line="\${COMP_LINE:0:COMP_POINT}"
  [[ -z "$line" ]] && line="\${COMP_WORDS[*]:0:COMP_CWORD+1}"
  [[ "$cur" == "=" || "$cur" == ":" ]] && cur=""
  local out
  out="$(command mcpctl __complete "$line" 2>/dev/null)" || return 0
  if [[ "$out" == "${FILES}" ]]; then
    compopt -o filenames 2>/dev/null
    local IFS=$'\\n'
    COMPREPLY=($(compgen -f -- "$cur"))
    return 0
  fi
  local last="\${line##*[[:space:]]}"
  local before="\${last:0:\${#last}-\${#cur}}"
  local IFS=$'\\n'
  COMPREPLY=()
  local word
  for word in $out; do COMPREPLY+=("\${word#"$before"}"); done
  [[ \${#COMPREPLY[@]} -eq 1 && "\${COMPREPLY[0]}" == *= ]] && compopt -o nospace 2>/dev/null
  return 0
}
complete -F _mcpctl mcpctl
`

const zsh = `#compdef mcpctl
# mcpctl completion for zsh: source <(mcpctl completion zsh)
_mcpctl() {
  local line="\${(j: :)words[1,CURRENT]}"
  local -a out
  out=("\${(@f)$(command mcpctl __complete "$line" 2>/dev/null)}")
  if [[ "\${out[1]}" == "${FILES}" ]]; then
    _files
    return
  fi
  local -a full bare
  local word
  for word in $out; do
    [[ -z "$word" ]] && continue
    if [[ "$word" == *= ]]; then full+=("$word"); else bare+=("$word"); fi
  done
  (( \${#full} )) && compadd -S '' -- $full
  (( \${#bare} )) && compadd -- $bare
}
if (( $+functions[compdef] )); then compdef _mcpctl mcpctl; fi
`

const fish = `# mcpctl completion for fish: mcpctl completion fish > ~/.config/fish/completions/mcpctl.fish
function __mcpctl_complete
    set -l out (command mcpctl __complete (commandline -cp) 2>/dev/null)
    if test "$out[1]" = "${FILES}"
        __fish_complete_path (commandline -ct)
    else
        printf '%s\\n' $out
    end
end
complete -c mcpctl -f -a '(__mcpctl_complete)'
`

/** The script for `shell`. */
export const scriptFor = (shell: Shell): string => ({ bash, zsh, fish })[shell]
