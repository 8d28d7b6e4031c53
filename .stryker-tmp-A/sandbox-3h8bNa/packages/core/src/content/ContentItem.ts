/**
 * The content items mcpctl hands on (the SDK's blocks, or a binary persisted to a file) and the
 * part of a call result the output budget covers. A leaf: types only, shared by shaping,
 * persistence, the catalogue and rendering.
 */
// @ts-nocheck

import type { ContentBlock } from "@modelcontextprotocol/client"

/**
 * A binary item after persistence: what a reader needs to open the file, never the base64.
 * @since 0.1.0
 */
export interface FileContent {
  readonly type: "file"
  readonly path: string
  readonly mimeType: string
  readonly bytes: number
  readonly originalType: "image" | "audio" | "resource"
  readonly uri?: string
  readonly annotations?: unknown
}

/**
 * A content item as the CLI and library hand it on: the SDK's blocks, or a persisted file.
 * @since 0.1.0
 */
export type ContentItem = ContentBlock | FileContent

/**
 * The parts of a call result that the budget covers (a `CallToolResult` fits).
 * @since 0.1.0
 */
export interface ShapeInput {
  readonly content?: ReadonlyArray<ContentItem>
  /**
   * Any JSON value: 2026-07-28 lets a tool answer an array, a string or a number; the 2025 era
   * only an object.
   */
  readonly structuredContent?: unknown
}
