/**
 * A task that needs input (`input_required`, SEP-2663 with SEP-2322's `inputRequests`) against the
 * real SDK v2 tasks fixture (`confirm_delete`): waiting on it answers the form through the host's
 * Elicitation policy, sends the answer with `tasks/update`, and the task resumes to its result;
 * a host with no elicitation layer ends the wait with an error that names what was asked.
 */
import { slow } from "./support/slow.js"
import { describe, expect, it } from "@effect/vitest"
import { config, nodeServer, v2TasksServer } from "@mcpctl/testing/Fixtures"
import { Elicitation, type ElicitationAnswer, type ElicitationRequest } from "@mcpctl/core/Elicitation"
import * as CoreHost from "@mcpctl/core/Host"
import { Tasks } from "@mcpctl/core/Tasks"
import { Transport } from "@mcpctl/core/Transport"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

const hostWith = (elicitation: Layer.Layer<Elicitation> | undefined) =>
  Layer.provideMerge(
    Tasks.layer,
    CoreHost.layer({
      config: config({
        servers: [nodeServer("t", v2TasksServer)],
        home: mkdtempSync(path.join(tmpdir(), "mcpctl-tasks-input-")),
        permissions: { allow: ["mcp__*"] }
      }),
      transport: Transport.layer,
      pins: false,
      elicitation
    })
  )

/** An Elicitation policy that records what it was asked and gives `answer`. */
const answering = (answer: ElicitationAnswer) => {
  const asked: Array<ElicitationRequest> = []
  return { asked, layer: Elicitation.layerWith({ opensRequiredUrls: false, answer: (r) => Effect.sync(() => (asked.push(r), answer)) }) }
}

const confirmDelete = (filename: string) =>
  Effect.gen(function*() {
    const tasks = yield* Tasks
    const started = yield* tasks.start("mcp__t__confirm_delete", { filename })
    if (started._tag !== "Task") return yield* Effect.die(new Error("confirm_delete was not a task"))
    return { tasks, task: started.task }
  })

const textOf = (result: { content: ReadonlyArray<unknown> } | undefined) => (result?.content[0] as { text: string } | undefined)?.text

describe("a task that needs input", () => {
  const accepting = answering({ action: "accept", content: { confirm: true } })
  it.live("is answered by the host's elicitation, resumes and completes", () =>
    Effect.gen(function*() {
      const { tasks, task } = yield* confirmDelete("a.txt")
      const states = Chunk.toReadonlyArray(yield* Stream.runCollect(tasks.wait("t", task.taskId)))
      expect(states.map((s) => s.status)).toContain("input_required")
      const last = states[states.length - 1]!
      expect(last.status).toBe("completed")
      expect(textOf(last.result)).toBe("deleted a.txt")
      // Asked once, as a form of this server, with the server's own message and schema.
      expect(accepting.asked).toHaveLength(1)
      expect(accepting.asked[0]).toMatchObject({ mode: "form", server: "t", message: "Delete a.txt?" })
      expect(accepting.asked[0]!.mode === "form" && accepting.asked[0]!.requestedSchema.required).toEqual(["confirm"])
    }).pipe(Effect.provide(hostWith(accepting.layer))), slow(60_000))

  const declining = answering({ action: "decline" })
  it.live("a declined form goes back to the server as the answer: the tool decides", () =>
    Effect.gen(function*() {
      const { tasks, task } = yield* confirmDelete("b.txt")
      const last = yield* tasks.result("t", task.taskId)
      expect(last.status).toBe("completed")
      expect(textOf(last.result)).toBe("kept b.txt (decline)")
      expect(declining.asked).toHaveLength(1)
    }).pipe(Effect.provide(hostWith(declining.layer))), slow(60_000))

  it.live("with no elicitation layer the wait ends with an error naming the request; the task keeps waiting on the server", () =>
    Effect.gen(function*() {
      const { tasks, task } = yield* confirmDelete("c.txt")
      const error = yield* Effect.flip(tasks.result("t", task.taskId))
      expect(error.message).toContain(`task ${task.taskId} on t needs input mcpctl cannot give (elicitation/create for "confirm"`)
      expect(error.message).toContain(`mcpctl task cancel t ${task.taskId}`)
      expect((yield* tasks.get("t", task.taskId)).status).toBe("input_required")
      yield* tasks.cancel("t", task.taskId)
    }).pipe(Effect.provide(hostWith(undefined))), slow(60_000))
})
