import { resourceSuite } from './resource-suite.ts';
import { sqliteBackend } from './fixtures.ts';

resourceSuite(sqliteBackend, false);
