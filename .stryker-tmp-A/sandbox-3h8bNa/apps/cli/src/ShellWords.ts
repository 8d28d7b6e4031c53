/**
 * Splits a line like a shell would for quotes and backslashes, nothing more (pure; imports
 * nothing, so the completion bundle can use it without Effect). `last` is the word still open at
 * the end of the line (undefined after whitespace): what `--stdio` takes as its last argument and
 * what a shell's Tab completes.
 */
// @ts-nocheck

export const shellWords = (line: string): { readonly words: Array<string>; readonly last: string | undefined } => {
  const words: Array<string> = []
  let word: string | undefined
  let quote: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote) {
      if (c === quote) quote = undefined
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word = (word ?? "") + line[++i]
      else word = (word ?? "") + c
    } else if (c === '"' || c === "'") {
      quote = c
      word ??= ""
    } else if (c === "\\" && i + 1 < line.length) word = (word ?? "") + line[++i]
    else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else word = (word ?? "") + c
  }
  return { words, last: word }
}
