// @ts-nocheck
import { describe, expect, it } from "@effect/vitest"
import { childEnvironment } from "../src/internal/transport/ChildEnvironment.js"

describe("childEnvironment", () => {
  const parent = {
    HOME: "/home/u",
    PATH: "/usr/bin:/bin",
    USER: "u",
    LANG: "en_US.UTF-8",
    TMPDIR: "/tmp/u",
    AWS_SECRET_ACCESS_KEY: "secret",
    GITHUB_TOKEN: "ghp_secret",
    OPENAI_API_KEY: "sk-secret",
    HTTPS_PROXY: "http://user:pass@proxy:8080",
    SHELL: "() { evil; }",
    TERM: undefined
  }

  it("passes only the safe default set from the parent", () => {
    expect(childEnvironment(parent, undefined, "linux")).toEqual({
      HOME: "/home/u",
      PATH: "/usr/bin:/bin",
      USER: "u",
      LANG: "en_US.UTF-8",
      TMPDIR: "/tmp/u"
    })
  })

  it("never passes secrets implicitly, and skips exported shell functions", () => {
    const env = childEnvironment(parent, {}, "linux")
    expect(env).not.toHaveProperty("AWS_SECRET_ACCESS_KEY")
    expect(env).not.toHaveProperty("GITHUB_TOKEN")
    expect(env).not.toHaveProperty("OPENAI_API_KEY")
    expect(env).not.toHaveProperty("HTTPS_PROXY")
    expect(env).not.toHaveProperty("SHELL")
    expect(env).not.toHaveProperty("TERM")
  })

  it("puts the config's env on top", () => {
    const env = childEnvironment(parent, { GITHUB_TOKEN: "from-config", PATH: "/opt/bin" }, "linux")
    expect(env.GITHUB_TOKEN).toBe("from-config")
    expect(env.PATH).toBe("/opt/bin")
    expect(env.HOME).toBe("/home/u")
  })

  it("adds the variables Windows needs on win32", () => {
    const env = childEnvironment({ SYSTEMROOT: "C:\\Windows", PATH: "C:\\bin", SECRET: "x" }, undefined, "win32")
    expect(env).toEqual({ SYSTEMROOT: "C:\\Windows", PATH: "C:\\bin" })
  })
})
