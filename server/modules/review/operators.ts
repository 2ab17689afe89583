// The staff directory moved to the operator module (server/modules/operator/directory.ts,
// issue 24: refund no longer imports review); this name stays for the test fixtures that import it.
export * from '../operator/directory.ts';
