import { apiPanel } from './api/api-panel.ts';
import { configPanel } from './config/config-panel.ts';
import { cpuPanel } from './cpu/cpu-panel.ts';
import { dbPanel } from './db/db-panel.ts';
import { eventsPanel } from './events/events-panel.ts';
import { exceptionPanel } from './exception/exception-panel.ts';
import { httpClientPanel } from './http-client/http-client-panel.ts';
import { logsPanel } from './logs/logs-panel.ts';
import type { ProfilerPanel } from '../define-profiler-panel.ts';
import { requestPanel } from './request/request-panel.ts';
import { responsePanel } from './response/response-panel.ts';
import { routerPanel } from './router/router-panel.ts';
import { securityPanel } from './security/security-panel.ts';
import { timePanel } from './time/time-panel.ts';

/**
 * The built-in panels, each one unit (a folder: its collector, its page, made with
 * defineProfilerPanel as an app's own panel is), in menu order. Their collectors run in this order
 * too (defaultCollectors): the request's first, since it finds the secrets the others scrub.
 */
export const defaultPanels: readonly ProfilerPanel[] = [requestPanel, responsePanel, timePanel, cpuPanel, exceptionPanel, logsPanel, dbPanel, securityPanel, routerPanel, apiPanel, httpClientPanel, eventsPanel, configPanel];
