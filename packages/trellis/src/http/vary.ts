import type { FastifyReply } from 'fastify';

/** Adds field names to Vary without dropping what other layers put there (RFC 9110 §12.5.5). */
export function addVary(reply: FastifyReply, ...fields: string[]): void {
  const current = reply.getHeader('vary');
  const existing = typeof current === 'string' ? current.split(',').map((s) => s.trim()).filter(Boolean) : [];
  if (existing.includes('*')) return;
  const lower = existing.map((s) => s.toLowerCase());
  for (const f of fields) if (!lower.includes(f.toLowerCase())) existing.push(f);
  reply.header('vary', existing.join(', '));
}
