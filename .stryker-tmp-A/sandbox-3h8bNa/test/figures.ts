/**
 * The figures the docs state about the packages (docs/library.md, the package table: tarball and
 * installed size), read so `test/package.test.ts` can hold them against what it measures, and
 * fail with the figure to write when one drifts. Pure.
 */
// @ts-nocheck


/** One package's row: its tarball and installed sizes in MB, as written. */
export interface PackageFigures {
  readonly tarballMb: number
  readonly installedMb: number
}

/** The rows of the table whose header has `tarball` and `installed` columns, by package name. */
export const packageFigures = (markdown: string): Map<string, PackageFigures> => {
  const rows = new Map<string, PackageFigures>()
  const lines = markdown.split("\n")
  const header = lines.findIndex((l) => /^\|.*\| tarball \| installed \|\s*$/.test(l))
  if (header < 0) return rows
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim())
    const name = /^`([^`]+)`/.exec(cells[0] ?? "")?.[1]
    const tarball = /^([\d.]+) MB/.exec(cells.at(-2) ?? "")?.[1]
    const installed = /^([\d.]+) MB/.exec(cells.at(-1) ?? "")?.[1]
    if (name && tarball && installed) rows.set(name, { tarballMb: Number(tarball), installedMb: Number(installed) })
  }
  return rows
}

/**
 * Whether a written figure stands for a measured one: within `tolerance` (a fraction of the
 * measurement) or within `floorMb` (what rounding a small figure can hide).
 */
export const figureHolds = (writtenMb: number, measuredMb: number, tolerance = 0.08, floorMb = 0.02): boolean =>
  Math.abs(writtenMb - measuredMb) <= Math.max(tolerance * measuredMb, floorMb)
