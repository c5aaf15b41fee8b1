/** Input to the matrix stage: YAML with positions, problems as FILE:LINE:COL, did-you-mean. */
package io.tunelab.yaml;
