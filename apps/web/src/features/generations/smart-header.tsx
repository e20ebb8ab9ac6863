/** The heading of the smart flow's screens (upload and progress), one wording for both. */
export function SmartHeader() {
  return (
    <header className="page-header center">
      <h1>Smart Product Generator</h1>
      <p className="lead">We analyse your product, design styles for it and generate each one.</p>
    </header>
  );
}
