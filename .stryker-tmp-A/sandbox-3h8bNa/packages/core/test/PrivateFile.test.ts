/** Secret files the settings name are refused when others may read them, as ssh refuses a key. */
// @ts-nocheck

import { describe, expect, it } from "@effect/vitest"
import { chmodSync, chownSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import { readSecret } from "../src/internal/auth/Grants.js"
import { loadOrCreateKeyPair } from "../src/internal/auth/Dpop.js"
import { readPrivateFileSync, tooOpen } from "../src/internal/PrivateFile.js"

const dir = () => mkdtempSync(Path.join(tmpdir(), "mcpctl-private-"))

describe("tooOpen (pure)", () => {
  it("accepts 0600 and 0400 of the owner, refuses any group or other bit and another owner", () => {
    expect(tooOpen({ mode: 0o100600, uid: 1000 }, 1000)).toBeUndefined()
    expect(tooOpen({ mode: 0o100400, uid: 0 }, 1000)).toBeUndefined()
    expect(tooOpen({ mode: 0o100644, uid: 1000 }, 1000)).toContain("0644")
    expect(tooOpen({ mode: 0o100640, uid: 1000 }, 1000)).toContain("0640")
    expect(tooOpen({ mode: 0o100602, uid: 1000 }, 1000)).toContain("0602")
    expect(tooOpen({ mode: 0o100600, uid: 1001 }, 1000)).toContain("another user (uid 1001)")
  })
})

describe("reading secret files", () => {
  it("a workload assertion readable by others is refused with the chmod to run; 0600 is read", () => {
    const d = dir()
    try {
      const file = Path.join(d, "workload.jwt")
      writeFileSync(file, "eyJ.secret\n", { mode: 0o644 })
      chmodSync(file, 0o644)
      expect(() => readSecret("workload assertion", file, undefined)).toThrow(`chmod 600 ${file}`)
      chmodSync(file, 0o600)
      expect(readSecret("workload assertion", file, undefined)).toBe("eyJ.secret")
    } finally {
      rmSync(d, { recursive: true, force: true })
    }
  })

  it("the check is on the file a symbolic link leads to (Kubernetes token mounts)", () => {
    const d = dir()
    try {
      const target = Path.join(d, "..data-token"), link = Path.join(d, "token")
      writeFileSync(target, "T", { mode: 0o600 })
      symlinkSync(target, link)
      expect(readPrivateFileSync("ID token", link)).toBe("T")
      chmodSync(target, 0o644)
      expect(() => readPrivateFileSync("ID token", link)).toThrow("is not private")
    } finally {
      rmSync(d, { recursive: true, force: true })
    }
  })

  it("a file of another user is refused even at 0600", () => {
    const d = dir()
    try {
      const file = Path.join(d, "key.pem")
      writeFileSync(file, "K", { mode: 0o600 })
      if (process.getuid?.() === 0) {
        // The tests run as root here: give the file to nobody.
        chownSync(file, 65534, 65534)
        expect(() => readPrivateFileSync("private key", file)).toThrow("belongs to another user (uid 65534)")
      } else {
        expect(readPrivateFileSync("private key", file)).toBe("K")
      }
    } finally {
      rmSync(d, { recursive: true, force: true })
    }
  })

  it("a kept DPoP key that others may read is refused, not used", async () => {
    const home = dir()
    try {
      const file = Path.join(home, "oauth", "s.dpop.json")
      await loadOrCreateKeyPair(home, file)
      await loadOrCreateKeyPair(home, file)
      chmodSync(file, 0o644)
      await expect(loadOrCreateKeyPair(home, file)).rejects.toThrow(`the DPoP key file ${file} is not private`)
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})
