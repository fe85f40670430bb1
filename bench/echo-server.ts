import express from 'express';

/** The reference for REST throughput: a bare express app that parses a JSON body and echoes it. */
const app = express();
app.use(express.json({ limit: '64kb' }));
app.get('/health', (_req, res) => {
  res.json({ status: 'ok' });
});
app.post('/echo', (req, res) => {
  res.json(req.body);
});
app.listen(Number(process.env.PORT ?? 3999), '127.0.0.1');
