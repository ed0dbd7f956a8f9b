// Calibration: the empty-dispatch floor. The store never runs but keeps the binding alive in
// the 'auto' layout.
@group(0) @binding(0) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) lid: u32) {
  if (lid > 1000000u) {
    dst[0] = 1.0;
  }
}
