// The `flowstack` command.
print("flowstack: commands arrive with the CLI issue")
