/** The dashboard's one HTML page: a shell that loads the bundle; everything else is drawn by the script. */
export const DASHBOARD_PAGE =
  `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>chainscreen dashboard</title>
  <link rel="stylesheet" href="/app/assets/main.css">
  <script type="module" src="/app/assets/main.js"></script>
</head>
<body>
  <div id="root"><noscript>The dashboard needs JavaScript. ` +
  `The API itself is documented at <a href="/docs">/docs</a>.</noscript></div>
</body>
</html>
`;
