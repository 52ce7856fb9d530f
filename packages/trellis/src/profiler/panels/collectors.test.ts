import { dataCollectorContract } from '../data-collector.contract.ts';
import { defaultCollectors } from './default-collectors.ts';

for (const collector of defaultCollectors) dataCollectorContract(collector);
