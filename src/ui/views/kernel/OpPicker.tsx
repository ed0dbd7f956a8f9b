// Which op: every op the registry lists, with its summary.
import { OPS } from '../../../core/ops/registry';
import { Select } from '../../components/Select';
import type { KernelForm } from './kernel-form';

const OP_NAMES = OPS.map((op) => op.name);

export function OpPicker(props: { form: KernelForm }) {
  return (
    <div class="field">
      <label for="op-select">op</label>
      <Select id="op-select" testid="op-select" value={props.form.op().name} options={OP_NAMES} onChange={(v) => props.form.selectOp(v)} />
      <span class="hint" data-testid="op-summary">
        {props.form.op().summary}
      </span>
    </div>
  );
}
