export { profilerPlugin, type ProfilerPluginOptions } from './profiler-plugin.ts';
