export async function main(_a: string[]) { console.log("vp"); return 0; }
