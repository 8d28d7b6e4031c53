/**
 * `mcpctl call TOOL --help`: the tool's parameters from its input schema (names, types, required,
 * enums, descriptions) as the `key=value` pairs `call` takes. Pure.
 */
// @ts-nocheck

import { wrap } from "./Help.js"

/** The part of a JSON Schema property this reads. */
interface Property {
  readonly type?: string | ReadonlyArray<string>
  readonly enum?: ReadonlyArray<unknown>
  readonly description?: string
  readonly default?: unknown
  readonly items?: Property
}

/** What a tool's help needs of it (an McpTool has all of it). */
export interface ToolInfo {
  readonly name: string
  readonly description: string
  readonly inputSchema: { readonly properties?: Record<string, unknown>; readonly required?: ReadonlyArray<string> }
}

const typeOf = (p: Property): string => {
  if (p.enum) return p.enum.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join("|")
  const t = Array.isArray(p.type) ? p.type.join("|") : (p.type as string | undefined) ?? "any"
  return t === "array" && p.items?.type ? `array of ${typeOf(p.items)}` : t
}

/** The help of one tool. */
export const toolHelp = (tool: ToolInfo): string => {
  const props = Object.entries(tool.inputSchema.properties ?? {}) as Array<[string, Property]>
  const required = new Set(tool.inputSchema.required ?? [])
  const pairs = props.map(([k, p]) => (required.has(k) ? `${k}=${placeholder(p)}` : `[${k}=${placeholder(p)}]`)).join(" ")
  const lines = [`${tool.name}: ${wrap(tool.description || "(no description)", 90).join("\n  ")}`, "", `Usage: mcpctl call ${tool.name}${pairs ? ` ${pairs}` : ""}`, ""]
  if (props.length === 0) lines.push("No parameters.")
  else {
    lines.push("Parameters:")
    for (const [k, p] of props) {
      const facts = [typeOf(p), required.has(k) ? "required" : "optional", ...(p.default !== undefined ? [`default ${JSON.stringify(p.default)}`] : [])]
      lines.push(`  ${k} (${facts.join(", ")})`)
      if (p.description) lines.push(...wrap(p.description, 90).map((l) => `      ${l}`))
    }
  }
  lines.push("", "Values are coerced by this schema (n=3 is a number where it says so); objects and arrays are JSON, or use --args JSON.")
  return lines.join("\n")
}

const placeholder = (p: Property) => (p.enum && p.enum.length <= 4 ? typeOf(p) : (Array.isArray(p.type) ? p.type[0] : p.type)?.toUpperCase() ?? "VALUE")

/** The tool a `call … --help` line names (the first word after `call` that is no flag nor a flag's value). */
export const toolOfCall = (args: ReadonlyArray<string>, takesValue: (flag: string) => boolean): string | undefined => {
  const start = args.indexOf("call")
  for (let i = start + 1; start >= 0 && i < args.length; i++) {
    const a = args[i]!
    if (a === "--") return undefined
    if (a.startsWith("-")) {
      if (!a.includes("=") && takesValue(a)) i++
      continue
    }
    return a
  }
  return undefined
}
