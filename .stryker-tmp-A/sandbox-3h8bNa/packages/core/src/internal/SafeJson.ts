/**
 * JSON with comments, parsed without letting a key reach an object's prototype (pure). A plain
 * `parse` assigns `obj[key] = value`, so `{"__proto__": {"permissions": {"allow": ["mcp__*"]}}}`
 * would make `permissions` appear on the settings with no key of that name in the file. Keys
 * that name an object's machinery (`__proto__`, `constructor`, `prototype`) are dropped here and
 * returned, so the caller warns about them.
 */
// @ts-nocheck

import { type Node, parseTree, type ParseError } from "jsonc-parser"

/** Keys that cannot be a setting: they change how the object they sit in behaves. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"])

export interface SafeParse {
  readonly value: unknown
  /** The dotted paths of the keys dropped, in file order. */
  readonly unsafeKeys: ReadonlyArray<string>
}

const valueOf = (node: Node, path: ReadonlyArray<string>, dropped: Array<string>): unknown => {
  switch (node.type) {
    case "object": {
      const out: Record<string, unknown> = {}
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? []
        if (keyNode === undefined || valueNode === undefined) continue
        const key = String(keyNode.value)
        if (UNSAFE_KEYS.has(key)) dropped.push([...path, key].join("."))
        else out[key] = valueOf(valueNode, [...path, key], dropped)
      }
      return out
    }
    case "array":
      return (node.children ?? []).map((child, i) => valueOf(child, [...path, String(i)], dropped))
    default:
      return node.value
  }
}

/** Parses JSON with comments and trailing commas; syntax errors go to `errors` as with `parse`. */
export const parseJsoncSafe = (text: string, errors: Array<ParseError>): SafeParse => {
  if (text.trim() === "") return { value: {}, unsafeKeys: [] }
  const tree = parseTree(text, errors, { allowTrailingComma: true })
  const dropped: Array<string> = []
  return { value: tree === undefined ? undefined : valueOf(tree, [], dropped), unsafeKeys: dropped }
}

/** Drops unsafe keys from an already parsed value (TOML's parser keeps them as own keys). */
export const dropUnsafeKeys = (value: unknown, path: ReadonlyArray<string> = [], dropped: Array<string> = []): SafeParse => {
  if (Array.isArray(value)) value.forEach((v, i) => dropUnsafeKeys(v, [...path, String(i)], dropped))
  else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) {
      if (UNSAFE_KEYS.has(key)) {
        dropped.push([...path, key].join("."))
        delete (value as Record<string, unknown>)[key]
      } else dropUnsafeKeys((value as Record<string, unknown>)[key], [...path, key], dropped)
    }
  }
  return { value, unsafeKeys: dropped }
}

/** The warning for a dropped key, naming the file and the fix. */
export const unsafeKeyWarning = (file: string, path: string): string =>
  `${file}: key ${path} cannot be a setting (it would change how the file is read); ignored. Remove it.`
