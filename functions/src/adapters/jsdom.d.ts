/**
 * The little of jsdom the SVG sanitizer uses. @types/jsdom is not installed: it adds the DOM library
 * to every program that reaches the sanitizer, changing global types (fetch, timers) for Node code.
 */
declare module 'jsdom' {
  export interface SvgDomNode {
    readonly nodeType: number;
    readonly parentNode: SvgDomNode | null;
    readonly textContent: string | null;
    removeChild(child: SvgDomNode): SvgDomNode;
    replaceChild(node: SvgDomNode, child: SvgDomNode): SvgDomNode;
  }
  export interface SvgDomText extends SvgDomNode {
    readonly data: string;
  }
  export interface SvgDomElement extends SvgDomNode {
    readonly localName: string;
    readonly namespaceURI: string | null;
    readonly prefix: string | null;
    getAttribute(name: string): string | null;
  }
  export interface SvgDomDocument {
    readonly documentElement: SvgDomElement | null;
    getElementsByTagNameNS(namespace: string, localName: string): { readonly length: number };
    createTextNode(data: string): SvgDomText;
    createTreeWalker(root: SvgDomNode, whatToShow: number): { nextNode(): SvgDomNode | null };
  }
  export interface DOMWindow {
    DOMParser: new () => { parseFromString(text: string, type: 'image/svg+xml'): SvgDomDocument };
    XMLSerializer: new () => { serializeToString(node: SvgDomNode): string };
  }
  export class JSDOM {
    constructor(html?: string);
    readonly window: DOMWindow;
  }
}
