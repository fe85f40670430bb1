import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { decodeBase64 } from '../../../src/eval/neural/kernel';
import { KERNEL_WASM_BASE64, KERNEL_WASM_SHA256 } from '../../../src/eval/neural/kernel-wasm';
import { KERNEL_WASM, compileKernel, sha256 } from '../../../scripts/build/kernel';

/**
 * The WebAssembly SIMD kernel of the forward pass (src/eval/neural/kernel/):
 * the committed bytes are what `npm run build:kernel` builds (a compile by
 * AssemblyScript, so a system-tier test; the kernel's outputs are checked in
 * kernel.test.ts).
 */
describe('kernel build', () => {
  it('the committed .wasm and its embedded base64 are a fresh build of kernel/forward.ts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kernel-'));
    try {
      const fresh = compileKernel(join(dir, 'forward.wasm'));
      const committed = readFileSync(KERNEL_WASM);
      const embedded = decodeBase64(KERNEL_WASM_BASE64);
      expect(fresh.length).toBeGreaterThan(500);
      expect(sha256(fresh)).toBe(sha256(committed));
      expect(sha256(embedded)).toBe(sha256(committed));
      expect(KERNEL_WASM_SHA256).toBe(sha256(committed));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
