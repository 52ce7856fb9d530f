import type { Scenario } from './scenario.ts';
import { notFound } from './not-found.ts';
import { helloJson } from './hello-json.ts';
import { getItem } from './get-item.ts';
import { getCollection } from './get-collection.ts';
import { postValidation } from './post-validation.ts';
import { bearerItem } from './bearer-item.ts';
import { profilerFind } from './profiler-find.ts';
import { profilerRss } from './profiler-rss.ts';
import { profilerPage } from './profiler-page.ts';
import { startup } from './startup.ts';
import { loginStorm } from './login-storm.ts';
import { htmlPage } from './html-page.ts';

/** Every scenario, in the order a full run takes them. */
export const SCENARIOS: readonly Scenario[] = [notFound, helloJson, getItem, getCollection, postValidation, bearerItem, profilerFind, profilerPage, htmlPage, profilerRss, loginStorm, startup];
