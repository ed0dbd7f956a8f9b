// What every tab's view receives: the adapter the worker opened (views render only once it is known).
import type { AdapterDescriptor } from '../../core/adapter';

export interface ViewProps {
  readonly adapter: AdapterDescriptor;
}
