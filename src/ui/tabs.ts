// The page's tabs, in order: add a view by adding one entry here.
import type { Component } from 'solid-js';
import { CensusView } from './views/CensusView';
import { DeviceView } from './views/DeviceView';
import { FormatsView } from './views/FormatsView';
import { HistoryView } from './views/HistoryView';
import { KernelView } from './views/KernelView';
import { LaneView } from './views/LaneView';
import { ReportView } from './views/ReportView';
import { SweepView } from './views/SweepView';
import type { ViewProps } from './views/view-props';

export interface Tab {
  /** The hash route: '#/kernel'. */
  readonly id: string;
  readonly title: string;
  readonly view: Component<ViewProps>;
}

export const TABS: readonly Tab[] = [
  { id: 'kernel', title: 'Kernel', view: KernelView },
  { id: 'lane', title: 'Lane', view: LaneView },
  { id: 'sweep', title: 'Sweep', view: SweepView },
  { id: 'formats', title: 'Formats', view: FormatsView },
  { id: 'census', title: 'Census', view: CensusView },
  { id: 'device', title: 'Device', view: DeviceView },
  { id: 'history', title: 'History', view: HistoryView },
  { id: 'report', title: 'Report', view: ReportView },
];
