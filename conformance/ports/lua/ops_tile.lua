return function(OPS, session) end
