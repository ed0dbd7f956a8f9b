#!/usr/bin/env node
// Compiles one WGSL module (stdin) on Dawn's null backend with unsafe APIs, which offers
// chromium-experimental-subgroup-matrix where SwiftShader cannot: Tint's front end only (no GPU).
// Prints the validation error, if any, and exits 1 on one. One module per process: this Dawn build
// aborts when a second module in the same process logs compilation warnings (its deprecation
// notices for the subgroup-matrix builtins).
import { readFileSync } from 'node:fs';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);
const adapter = await create(['backend=null', 'enable-dawn-features=allow_unsafe_apis']).requestAdapter();
const device = await adapter.requestDevice({ requiredFeatures: ['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix'] });
device.pushErrorScope('validation');
device.createShaderModule({ code: readFileSync(0, 'utf8') });
const error = await device.popErrorScope();
if (error) console.log(error.message);
process.exit(error ? 1 : 0);
