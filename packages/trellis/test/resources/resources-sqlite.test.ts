import { resourceSuite } from './resource-suite.ts';
import { paginationSuite } from './pagination-suite.ts';
import { sqliteBackend } from './fixtures.ts';

resourceSuite(sqliteBackend, false);
paginationSuite(sqliteBackend, false);
