/** The generator's version, written into every generated header. A test keeps it equal to cli/package.json's. */
export const generatorVersion = '0.2.0';
