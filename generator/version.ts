/** The generator's version, written into every generated header. A test keeps it equal to package.json's. */
export const generatorVersion = '0.1.0';
