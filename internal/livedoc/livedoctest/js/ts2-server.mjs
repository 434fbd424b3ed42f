// An MCP server built with the official TypeScript SDK v2, which speaks MCP
// 2026-07-28 only (legacy: 'reject': no initialize). Run by the Go tests:
//   node ts2-server.mjs stdio   serves on stdin and stdout
//   node ts2-server.mjs http    serves Streamable HTTP on 127.0.0.1 and prints
//                               its URL on the first line of stdout
import http from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

function factory() {
  const server = new McpServer({ name: 'ts2-test-server', version: '2.4.0' }, { capabilities: { tools: {} } });
  server.registerTool('get_weather', {
    title: 'Weather',
    description: 'The weather of a city',
    icons: [
      { src: 'https://example.com/sun-light.png', mimeType: 'image/png', theme: 'light' },
      { src: 'https://example.com/sun-dark.png', mimeType: 'image/png', theme: 'dark' },
    ],
    inputSchema: z.object({ city: z.string(), point: z.tuple([z.number(), z.number()]).optional() }),
    outputSchema: z.object({ celsius: z.number(), sky: z.enum(['clear', 'cloudy']) }),
  }, async ({ city }) => ({ content: [{ type: 'text', text: city }], structuredContent: { celsius: 20, sky: 'clear' } }));
  server.registerTool('echo', {
    description: 'Echoes its text',
    inputSchema: z.object({ text: z.string() }),
  }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

if (process.argv[2] === 'stdio') {
  serveStdio(factory, { legacy: 'reject' });
} else {
  const handler = createMcpHandler(factory, { legacy: 'reject' });
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers, body });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}/mcp`));
  process.stdin.on('end', () => process.exit(0)).resume();
}
