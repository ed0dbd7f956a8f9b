// Formats: one op over many weight formats — each checked against the oracle of its dequantized
// weights, then timed — fastest first, with the quantization error beside the time, and the
// accuracy/speed frontier. The same run as `npm run lab -- formats` (LabApi.formats).
import { runTab } from '../components/RunPanel';
import { FormatsOptions } from './formats/FormatsOptions';
import { FormatsResultView } from './formats/FormatsResultView';
import { formatsState } from './formats/formats-state';

export const FormatsView = runTab({
  name: 'formats',
  title: 'Formats: the fastest precision per op, with its error',
  runLabel: 'Run formats',
  errorTitle: 'The formats run could not run',
  state: formatsState,
  options: (form) => <FormatsOptions form={form} />,
  result: (r) => <FormatsResultView result={r} />,
});
