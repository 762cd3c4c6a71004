/// Names people choose end sentences: "Acme Rockets & Co." must not become "Co..".

/** The name closing a sentence: its own full stop (or ! or ?) serves. */
export const closing = (name: string): string => (/[.!?…]$/.test(name.trim()) ? name : `${name}.`)

/** The first letter up: a sentence that starts with "a member" (an erased person) starts upright. */
export const upright = (sentence: string): string => sentence.charAt(0).toUpperCase() + sentence.slice(1)
