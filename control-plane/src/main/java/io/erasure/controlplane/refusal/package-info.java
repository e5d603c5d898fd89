/** The control plane's refusals, in the domain's terms; which HTTP status answers each is the web layer's. */
package io.erasure.controlplane.refusal;
