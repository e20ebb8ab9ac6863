// What other features may use of exports: the checklist and the export panel a shot popup shows.
export { ComplianceChecklist } from './compliance-checklist.js';
export { ExportPanel } from './export-panel.js';
