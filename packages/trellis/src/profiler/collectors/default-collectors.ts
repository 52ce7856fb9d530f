import type { DataCollector } from '../data-collector.ts';
import { apiCollector } from './api-collector.ts';
import { dbCollector } from './db-collector.ts';
import { eventsCollector } from './events-collector.ts';
import { exceptionCollector } from './exception-collector.ts';
import { httpClientCollector } from './http-client-collector.ts';
import { logsCollector } from './logs-collector.ts';
import { requestCollector } from './request-collector.ts';
import { responseCollector } from './response-collector.ts';
import { routerCollector } from './router-collector.ts';
import { securityCollector } from './security-collector.ts';
import { timeCollector } from './time-collector.ts';

/** The collectors every profile gets, in panel order. The request collector runs first: it finds the secrets. */
export const defaultCollectors: readonly DataCollector[] = [requestCollector, responseCollector, timeCollector, exceptionCollector, logsCollector, dbCollector, securityCollector, routerCollector, apiCollector, httpClientCollector, eventsCollector];
