import { describe, expect, it } from 'vitest';
import { caught } from '../../../test/fixtures/caught';
import { OPS } from '../ops/registry';
import { ManifestError } from './errors';
import { EXAMPLE_KERNELS } from './examples';
import { FIELDS } from './format';
import { userKernelIdentity, sha256Hex, shortKernelId } from './hash';
import { loadManifest } from './load';
import { inspectWgsl, stripComments } from './wgsl-check';
import schema from '../../../docs/kernel-manifest.schema.json';

const ex = (dir: string) => EXAMPLE_KERNELS.find((e) => e.dir === dir)!;
const loadEdited = (dir: string, edit: (m: any) => void, files: Record<string, string | undefined> = {}) => {
  const doc = JSON.parse(ex(dir).manifest);
  edit(doc);
  const all: Record<string, string | undefined> = { ...ex(dir).files, ...files };
  return loadManifest(JSON.stringify(doc), (f) => all[f], OPS);
};
const error = (fn: () => unknown): ManifestError => caught(fn, ManifestError);

describe('loading a manifest', () => {
  it('loads the examples with their WGSL (a manifest of variants: every variant\'s, in order)', () => {
    for (const e of EXAMPLE_KERNELS) {
      const m = loadManifest(e.manifest, (f) => e.files[f], OPS);
      const kernels = m.manifest.variants.length ? m.manifest.variants.flatMap((v) => v.manifest.kernels) : m.manifest.kernels;
      expect(m.wgsl.map((w) => w.file)).toEqual(kernels.map((k) => k.wgsl.file));
    }
    expect(EXAMPLE_KERNELS.map((e) => e.dir)).toEqual(['add', 'rms-norm', 'rms-norm-split', 'ggml-style-add']);
  });

  it('refuses text that is not JSON, with line and column', () => {
    const e = error(() => loadManifest('{\n  "name": "x",\n  oops\n}', () => undefined, OPS));
    expect(e.path).toBe('');
    expect(e.message).toMatch(/is not valid JSON/);
    expect(e.message).toMatch(/line 3 column 3/);
  });

  it('names unknown fields, missing fields and wrong types', () => {
    expect(error(() => loadEdited('add', (d) => (d.kernels[0].bindigns = []))).message).toBe(`manifest kernels[0]: unknown field 'bindigns' (fields: ${FIELDS.kernel.join(', ')})`);
    expect(error(() => loadEdited('add', (d) => delete d.kernels[0].dispatch)).message).toBe('manifest kernels[0].dispatch: is required');
    expect(error(() => loadEdited('add', (d) => (d.kernels[0].bindings[0].binding = '0'))).message).toBe('manifest kernels[0].bindings[0].binding: must be a finite number, got a string');
    expect(error(() => loadEdited('add', (d) => (d.manifestVersion = 2))).message).toBe('manifest manifestVersion: must be 1, got 2');
    expect(error(() => loadEdited('add', (d) => (d.claims = []))).message).toBe('manifest claims: must be an object, got an array');
    expect(error(() => loadEdited('add', (d) => (d.let = null))).message).toBe('manifest let: must be an object, got null');
  });

  it('names unknown roles, and roles that name no source of the op', () => {
    expect(error(() => loadEdited('add', (d) => (d.kernels[0].bindings[1].role = 'src3'))).message).toMatch(/bindings\[1\]\.role: unknown role 'src3' \(roles: src0, src1, src2, dst, params, scratch\)/);
    expect(error(() => loadEdited('add', (d) => (d.kernels[0].bindings[1].role = 'src2'))).message).toMatch(/bindings\[1\]\.role: ADD has 2 sources \(src0\.\.src1\): role 'src2' names none/);
    expect(error(() => loadEdited('add', (d) => (d.kernels[0].bindings[1].role = 'src0'))).message).toMatch(/bindings\[1\]: role 'src0' is already bound by bindings\[0\]/);
  });

  it('names unknown ops, layouts, params, uniform types and scratch buffers', () => {
    expect(error(() => loadEdited('add', (d) => (d.op = 'SOFTMAX'))).message).toMatch(/op: unknown op 'SOFTMAX' \(ops: ADD, RMS_NORM, RMS_NORM_BACK, MUL_MAT/);
    expect(error(() => loadEdited('add', (d) => d.claims.layouts.push('diagonal'))).message).toMatch(/claims\.layouts\[6\]: ADD has no layout 'diagonal'/);
    expect(error(() => loadEdited('add', (d) => (d.claims.params = { eps: {} }))).message).toMatch(/claims\.params\.eps: ADD has no param 'eps' \(params: none\)/);
    expect(error(() => loadEdited('add', (d) => (d.kernels[0].uniforms[0].type = 'vec4f'))).message).toMatch(/uniforms\[0\]\.type: unknown type 'vec4f' \(uniform types: u32, i32, f32/);
    expect(error(() => loadEdited('rms-norm-split', (d) => (d.kernels[0].bindings[1].buffer = 'partial'))).message).toMatch(/bindings\[1\]\.buffer: 'partial' is not one of the manifest's buffers \(partials\)/);
  });

  it('names an expression that does not parse, and one that reads an unknown name', () => {
    const p = error(() => loadEdited('add', (d) => (d.kernels[0].dispatch = { workgroups: 'ceil(n / )' })));
    expect(p.path).toBe('kernels[0].dispatch.workgroups');
    expect(p.message).toMatch(/expression "ceil\(n \/ \)" does not parse: expected a number, a name or '\(' but found '\)' at column 10/);
    const n = error(() => loadEdited('add', (d) => (d.kernels[0].uniforms[0].value = 'ne9')));
    expect(n.path).toBe('kernels[0].uniforms[0].value');
    expect(n.message).toMatch(/reads unknown name 'ne9' \(names here: .*boff0.*dispatch_x.*ne13.*wg_x/);
    // dispatch is evaluated before dispatch_x exists
    expect(error(() => loadEdited('add', (d) => (d.kernels[0].dispatch = ['dispatch_x']))).message).toMatch(/reads unknown name 'dispatch_x'/);
    expect(error(() => loadEdited('rms-norm-split', (d) => (d.let = { n: '1' }))).message).toMatch(/let\.n: 'n' is already a name of the case/);
  });

  it('refuses a missing WGSL file, and WGSL that disagrees with the bindings', () => {
    expect(error(() => loadEdited('add', () => {}, { 'add.wgsl': undefined })).message).toBe("manifest kernels[0].wgsl: the WGSL file 'add.wgsl' was not supplied");
    expect(error(() => loadEdited('add', (d) => d.kernels[0].bindings.pop())).message).toMatch(/kernels\[0\]\.bindings: declares uniforms but binds no 'params'/);
    const wgsl = ex('add').files['add.wgsl'];
    // A source declared read_write loads (engines declare them so: the run checks it was not written).
    expect(loadEdited('add', () => {}, { 'add.wgsl': wgsl.replace('var<storage, read> a', 'var<storage, read_write> a') }).wgsl[0].info.bindings[0].access).toBe('read_write');
    expect(error(() => loadEdited('add', () => {}, { 'add.wgsl': wgsl.replace('var<storage, read> a: array<f32>', 'var<uniform> a: vec4<f32>') })).message).toMatch(
      /bindings\[0\]: role src0 needs var<storage, read> or var<storage, read_write>, but add\.wgsl line 14 declares var<uniform> a/,
    );
    expect(error(() => loadEdited('add', () => {}, { 'add.wgsl': wgsl.replace('@binding(3)', '@binding(4)') })).message).toMatch(/bindings\[3\]: binding 3 \(role params\) is not declared in add\.wgsl/);
    expect(error(() => loadEdited('add', () => {}, { 'add.wgsl': wgsl + '\n@group(0) @binding(7) var<storage, read> extra: array<f32>;\n' })).message).toMatch(/add\.wgsl line 35 declares @binding\(7\) extra, which the manifest does not bind/);
    expect(error(() => loadEdited('add', (d) => (d.kernels[0].entryPoint = 'add'))).message).toMatch(/entryPoint: add\.wgsl has no @compute entry point 'add' \(found: main\)/);
    expect(error(() => loadEdited('add', (d) => (d.kernels[0].overrides = { WG2: 1 }))).message).toMatch(/overrides\.WG2: add\.wgsl declares no 'override WG2' \(overrides: WG\)/);
    expect(error(() => loadEdited('add', () => {}, { 'add.wgsl': 'enable f16;\n' + wgsl })).message).toMatch(/features: add\.wgsl enables an extension that needs the 'shader-f16' feature/);
  });

  it('takes inline WGSL', () => {
    const m = loadEdited('add', (d) => (d.kernels[0].wgsl = { text: ex('add').files['add.wgsl'], name: 'inline-add.wgsl' }), { 'add.wgsl': undefined });
    expect(m.wgsl[0].file).toBe('inline-add.wgsl');
  });
});

describe('inspecting WGSL', () => {
  it('finds bindings in either attribute order, entry points and their sizes, overrides, enables', () => {
    const info = inspectWgsl(`enable f16, subgroups;
// @group(0) @binding(9) var<storage, read_write> commented: array<f32>;
@binding(1) @group(0) var<storage> a: array<f32>;
@group(0) @binding(2) var<uniform> p: P;
/* a /* nested */ comment */ override TILE: u32 = 4u;
@compute @workgroup_size(64, 2) fn first() {}
@workgroup_size(TILE) @compute
fn second() {}
fn helper() {}`);
    expect(info.bindings).toEqual([
      { group: 0, binding: 1, name: 'a', space: 'storage', access: 'read', line: 3 },
      { group: 0, binding: 2, name: 'p', space: 'uniform', access: '', line: 4 },
    ]);
    expect(info.entryPoints).toEqual([
      { name: 'first', workgroupSize: [64, 2, 1], line: 6, readsWorkgroupYZ: false },
      { name: 'second', workgroupSize: [null, 1, 1], line: 8, readsWorkgroupYZ: false },
    ]);
    expect([...info.overrides]).toEqual(['TILE']);
    expect(info.enables).toEqual(['shader-f16', 'subgroups']);
  });

  it('blanks comments but keeps lines', () => {
    expect(stripComments('a // b\nc /* d\ne */ f')).toBe('a     \nc     \n     f');
  });
});

describe('identity', () => {
  it('hashes with SHA-256', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes the manifest text and each distinct WGSL file once', async () => {
    const e = ex('rms-norm-split');
    const id = await userKernelIdentity(loadManifest(e.manifest, (f) => e.files[f], OPS));
    expect(id.name).toBe('lab-rms-norm-split');
    expect(id.manifestSha256).toBe(await sha256Hex(e.manifest));
    expect(id.wgsl).toEqual([
      { file: 'sumsq.wgsl', sha256: await sha256Hex(e.files['sumsq.wgsl']) },
      { file: 'scale.wgsl', sha256: await sha256Hex(e.files['scale.wgsl']) },
    ]);
    expect(shortKernelId(id)).toBe(`lab-rms-norm-split@${id.manifestSha256.slice(0, 12)}`);
  });
});

describe('the JSON Schema', () => {
  const props = (o: any) => Object.keys(o.properties).sort();
  it('lists the fields the parser reads, object by object', () => {
    const d = schema.$defs as any;
    expect(props(schema)).toEqual([...FIELDS.manifest].sort());
    expect(props(d.claims)).toEqual([...FIELDS.claims].sort());
    expect(props(d.paramClaim)).toEqual([...FIELDS.paramRange].sort());
    expect(props(d.buffer)).toEqual([...FIELDS.buffer].sort());
    expect(props(d.kernel)).toEqual([...FIELDS.kernel].sort());
    expect(props(d.wgslText)).toEqual([...FIELDS.wgslText].sort());
    expect(props(d.binding)).toEqual([...FIELDS.binding].sort());
    expect(props(d.uniform)).toEqual([...FIELDS.uniform].sort());
    expect(props(d.dispatchLinear)).toEqual([...FIELDS.dispatchLinear].sort());
    expect(props(d.variant)).toEqual([...FIELDS.variant].sort());
    expect(d.binding.properties.role.enum).toEqual(['src0', 'src1', 'src2', 'dst', 'params', 'scratch']);
    expect(d.uniform.properties.type.enum).toEqual(['u32', 'i32', 'f32']);
  });
});
