console.log("mcpctl: under construction")
