/** Input to the matrix stage: YAML read with positions, problems as FILE:LINE:COL, did-you-mean. */
package io.tunelab.yaml;
