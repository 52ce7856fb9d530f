import { formatContract } from './format.contract.ts';
import { OUTPUT_FORMATS } from './output-formats.ts';

for (const format of OUTPUT_FORMATS) formatContract(format);
