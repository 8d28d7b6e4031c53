/** The folder-level rule of Architecture.test.ts, as pure functions (tested there directly). */
// @ts-nocheck


/**
 * The stage of a core module, for the folder-level rule: its folder under src/, with
 * internal/<stage>/ counted as <stage> (a public module and its implementation are one stage,
 * as effect's RcMap.ts and internal/rcMap.ts are); root files and internal/*.ts are `base`.
 */
export const stageOf = (module: string): string => {
  const inStage = module.replace(/^internal\//, "")
  return inStage.includes("/") ? inStage.split("/")[0]! : "base"
}

/** The cycles of a directed graph (one per strongly connected component of more than one node), each sorted. */
export const cyclesOf = (edges: ReadonlyMap<string, ReadonlySet<string>>): Array<Array<string>> => {
  const index = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>()
  const stack: Array<string> = [], out: Array<Array<string>> = []
  let next = 0
  const visit = (v: string): void => {
    index.set(v, next), low.set(v, next++), stack.push(v), onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) visit(w), low.set(v, Math.min(low.get(v)!, low.get(w)!))
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: Array<string> = []
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w), component.push(w)
        if (w === v) break
      }
      if (component.length > 1) out.push(component.sort())
    }
  }
  for (const v of edges.keys()) if (!index.has(v)) visit(v)
  return out
}
